/*
 * counter.h: a counter whose increment is not atomic, included by
 * header_race.c: its race is located here, in the header, not in the file
 * that includes it (issue 15, "positions in included headers name the
 * header").
 */
int counter;

static void counter_bump(void)
{
	int seen = counter;
	counter = seen + 1;
}
