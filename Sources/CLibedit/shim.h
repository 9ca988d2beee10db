/* CLibedit: Debian's libedit (BSD editline), through its readline-compatible
 * interface: the line editor of `reflect` at a terminal (arrow keys,
 * backspace over wide characters, no line-length limit). */
#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H
#include <stdio.h>
#include <editline/readline.h>

/* libedit's readline globals, read and set through functions (Swift's
 * strict concurrency does not touch C globals directly). */
static inline int clibedit_line_end(void) { return rl_end; }
static inline void clibedit_set_line_buffer(char *buffer) { rl_line_buffer = buffer; }
#endif
