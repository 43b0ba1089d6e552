/* setjmp/longjmp are not supported by mcr; declared so the use is named. */
#ifndef _MCR_SETJMP_H
#define _MCR_SETJMP_H
typedef long jmp_buf[8];
int setjmp(jmp_buf);
void longjmp(jmp_buf, int) __attribute__((noreturn));
#endif
