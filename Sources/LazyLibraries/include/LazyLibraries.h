/* Libraries loaded on first use (Linux): HarfBuzz, its subsetter, fontconfig, FreeType, libpng,
   Brotli and libedit.

   Package.swift does not link these libraries on Linux (lazySystemLibrary). Instead
   LazyLibraries.c, written by Scripts/gen-lazy-libraries, defines each function fontshell calls
   in them under its own name: the first call dlopens the library, and every call goes on to the
   real function. A process then loads only what it uses (`-e 'print(1)'` loads none of them;
   HarfBuzz alone brings GLib, Graphite, PCRE and expat). Swift keeps calling the functions
   through CHarfBuzz, CFreeType, CPNG, CBrotli, CEditLine …; a variable of a library is reached
   through the address its function below gives (in Swift, `address_of_rl_readline_name().pointee`).
   Elsewhere the libraries are linked as usual and the functions give the variables' own
   addresses. Generated: do not edit. */
#ifndef FONTSHELL_LAZY_LIBRARIES_H
#define FONTSHELL_LAZY_LIBRARIES_H
#include <stdio.h>
#if __has_include(<editline/readline.h>)
#include <editline/readline.h>
#else
#include <readline/readline.h>
#endif

__typeof__(rl_attempted_completion_function) *address_of_rl_attempted_completion_function(void);
__typeof__(rl_attempted_completion_over) *address_of_rl_attempted_completion_over(void);
__typeof__(rl_basic_word_break_characters) *address_of_rl_basic_word_break_characters(void);
__typeof__(rl_completer_word_break_characters) *address_of_rl_completer_word_break_characters(void);
__typeof__(rl_completion_append_character) *address_of_rl_completion_append_character(void);
__typeof__(rl_getc_function) *address_of_rl_getc_function(void);
__typeof__(rl_line_buffer) *address_of_rl_line_buffer(void);
__typeof__(rl_readline_name) *address_of_rl_readline_name(void);
#endif
