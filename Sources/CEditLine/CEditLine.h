#include <stdio.h>
#if __has_include(<editline/readline.h>)
#include <editline/readline.h>
#else
#include <readline/readline.h>
#endif
