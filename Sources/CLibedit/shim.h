/* CLibedit: Debian's libedit (BSD editline), through its readline-compatible
 * interface: the line editor of `reflect` at a terminal (arrow keys,
 * backspace over wide characters, no line-length limit). */
#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H
#include <stdio.h>
#include <editline/readline.h>
#endif
