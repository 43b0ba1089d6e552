/* mcr's model of <assert.h>: a failed assertion is an execution outcome. */
#ifndef _MCR_ASSERT_H
#define _MCR_ASSERT_H
void __mcr_assert_fail(const char *);
#define assert(e) ((e) ? (void)0 : __mcr_assert_fail(#e))
#endif
