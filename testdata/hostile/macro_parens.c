/* Object-like macros that open and close 100,000 parentheses: the nesting
   is built by macro expansion, not visible in the text. */
#define A ((((((((((
#define B A A A A A A A A A A
#define C B B B B B B B B B B
#define D C C C C C C C C C C
#define E D D D D D D D D D D
#define A2 ))))))))))
#define B2 A2 A2 A2 A2 A2 A2 A2 A2 A2 A2
#define C2 B2 B2 B2 B2 B2 B2 B2 B2 B2 B2
#define D2 C2 C2 C2 C2 C2 C2 C2 C2 C2 C2
#define E2 D2 D2 D2 D2 D2 D2 D2 D2 D2 D2
int main(void) { return E 1 E2; }
