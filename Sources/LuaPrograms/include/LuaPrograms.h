#ifndef FONTSHELL_LUA_PROGRAMS_H
#define FONTSHELL_LUA_PROGRAMS_H

/// The program's own Lua chunks, embedded at build time from the .lua files beside
/// LuaPrograms.c (so editors, linters and the duplicate finder see them as Lua, and start-up
/// reads no files). Not NUL-terminated: `count` is the length.
typedef struct {
    const char *bytes;
    long count;
} fs_lua_program;

/// The REPL's pretty-printer and completion (`fontshell.pretty`, `fontshell.complete`).
extern const fs_lua_program fs_lua_prelude;
/// The `check` module.
extern const fs_lua_program fs_lua_check_runner;
/// The stand-in `check` that loads the runner on first use.
extern const fs_lua_program fs_lua_check_stub;
/// A batch worker's job for `fontshell check`.
extern const fs_lua_program fs_lua_check_worker;
/// A batch job's `print`, which keeps the lines for the record.
extern const fs_lua_program fs_lua_batch_capture;
/// A batch job's JSON record.
extern const fs_lua_program fs_lua_batch_finish;
/// What a sandboxed state takes away (io, os but its clocks, require, precompiled chunks).
extern const fs_lua_program fs_lua_sandbox;

#endif
