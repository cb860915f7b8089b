// The C side of the Lua bridge. Everything that can raise a Lua error (longjmp) happens here,
// in C frames: Swift functions return a status and this shim raises after they have returned.
#ifndef LUASHIM_H
#define LUASHIM_H
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/// Status a Swift function returns instead of raising: >= 0 is the number of results.
#define FS_RAISE_MESSAGE (-1)  /* a message string is on top: raise it with "chunk:line:" position */
#define FS_RAISE_VALUE   (-2)  /* a value is on top: raise it as it is (an error object passing through) */

/// A Lua-callable function written in Swift. Called only through the trampoline.
typedef int (*fs_function)(lua_State *L);

/// A new state, the standard libraries opened, with a heap limit (FONTSHELL_LUA_MEMORY, default
/// 1 GiB) whose failures become Lua's "not enough memory" error without ever raising through a
/// Swift frame (see fs_alloc), and the interrupt hook. Close it with fs_closestate.
lua_State *fs_newstate(void);
/* The name the shim's own messages start with ("NAME: out of memory"); "lua" until set. */
void fs_set_program_name(const char *name);
const char *fs_program_name(void);
void fs_closestate(lua_State *L);
/* Templates: a state built once and put back as it was before each use (a batch worker's state
   per font). Every block the state allocates until it is frozen comes from one region;
   freezing copies the region's used part; resetting closes the state (finalizers run, blocks
   made since are freed) and copies the region back, so the next user finds the state exactly as
   it was frozen, as a fresh state built the same way would be. fs_template_newstate returns NULL
   where templates are not used (AddressSanitizer builds); fs_template_freeze returns 0 when the
   state outgrew its region (then close it and make fresh states). Destroy with fs_closestate. */
lua_State *fs_template_newstate(void);
int fs_template_freeze(lua_State *L);
void fs_template_reset(lua_State *L);
/* 1 while the state is a template being built. */
int fs_template_building(lua_State *L);
void fs_set_memory_limit(lua_State *L, size_t bytes);
/* Stops the state (every thread) with "instruction limit reached" after about `count` more VM
   instructions; -1 removes the limit. */
void fs_set_instruction_limit(lua_State *L, long long count);
/* Stops / restarts the garbage collector (lua_gc is variadic, which Swift cannot call). */
void fs_gc_stop(lua_State *L);
void fs_gc_restart(lua_State *L);
/* A full collection (finalizers' errors become warnings, as Lua runs them). */
void fs_gc_collect(lua_State *L);
size_t fs_memory_limit(lua_State *L);
size_t fs_memory_used(lua_State *L);

/// Pushes a C closure that calls `fn` through the trampoline; pops `nup` values which become the
/// function's upvalues 1...nup (read them with fs_upvalueindex).
void fs_pushfunction(lua_State *L, fs_function fn, int nup);
static inline int fs_upvalueindex(int i) { return lua_upvalueindex(i + 1); }

/// Message handler that appends a traceback (non-string errors are described as lua.c does).
int fs_traceback(lua_State *L);

/// lua_pcall with fs_traceback as message handler. The function and its arguments are on top.
int fs_pcall(lua_State *L, int nargs, int nresults);

/// luaL_tolstring run protected (a __tostring may raise). Pushes the string or an error message;
/// returns LUA_OK or an error status.
int fs_tostring(lua_State *L, int idx);

/// A class's member: a method (`method` set) or a field (`field`, its 1-based id).
typedef struct fs_member {
    const char *name;
    size_t length;
    fs_function method;
    lua_Integer field;
} fs_member;
/// A class's members sorted by name bytes (shorter first on a common prefix), made once per
/// process and never freed: states look names up here the first time they are used.
typedef struct fs_members {
    const fs_member *sorted;
    int count;
} fs_members;

/// Index dispatcher for userdata classes. Expects (member cache table, fs_members as light
/// userdata, metatable) on the stack and pops them. At call time: checks self's metatable, then
/// the cache (a method made before, or a field's id), then the sorted members: a method is made
/// (with the metatable as upvalue 1) and cached, a field's id cached; the getter gets (self, key,
/// id), id 0 when the key is not a field. A state thus builds only the members its scripts use.
void fs_pushindexer(lua_State *L, fs_function getter);
/// Same for __newindex: the setter gets (self, key, value, fieldId).
void fs_pushnewindexer(lua_State *L, fs_function setter);

/// Pushes lua.c's message for a bad argument of the running function: "bad argument #2 to
/// 'copyFrom' (Glyph expected, got number)", counting `self` out for method calls.
void fs_push_argerror(lua_State *L, int arg, const char *extramsg, const char *fallback_name);

/// Ctrl-C: a SIGINT handler after which running Lua code, in any coroutine, raises "interrupted!"
/// within 1000 instructions (and again, until it stops running). Install once per process.
void fs_install_interrupt_handler(void);
/// 1 if SIGINT arrived since the last call (clears it).
int fs_take_interrupt(void);
/// 1 if SIGINT arrived while Lua code was running (until fs_take_interrupt or the next run).
int fs_interrupted(void);
/// Marks whether Lua code is running (SIGINT then interrupts it) or not (SIGINT is only noted).
void fs_set_running(int running);

/// Class metatables live in one registry table indexed by small integer class ids, so pushing
/// an object or checking an argument's class needs no string lookups.
void fs_push_class_metatable(lua_State *L, int class_id);
/// Stores the table on top (popped) as the metatable of class_id.
void fs_store_class_metatable(lua_State *L, int class_id);
/// 1 if the value at idx is a userdata whose metatable is class_id's.
int fs_is_class(lua_State *L, int idx, int class_id);

// Macro wrappers Swift cannot import.
static inline void fs_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void fs_insert(lua_State *L, int idx) { lua_insert(L, idx); }
static inline void fs_remove(lua_State *L, int idx) { lua_remove(L, idx); }
static inline void fs_replace(lua_State *L, int idx) { lua_replace(L, idx); }
static inline void fs_newtable(lua_State *L) { lua_newtable(L); }
static inline void *fs_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 0); }
static inline int fs_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int fs_isnoneornil(lua_State *L, int idx) { return lua_type(L, idx) <= 0; }
static inline const char *fs_typename(lua_State *L, int idx) { return lua_typename(L, lua_type(L, idx)); }
static inline void fs_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int fs_loadbuffer(lua_State *L, const char *buf, size_t size, const char *name, const char *mode) {
    return luaL_loadbufferx(L, buf, size, name, mode);
}
/* The Lua function on top of the stack (left there) as a binary chunk with debug information:
   a malloc'd buffer (free it) of *size bytes, or NULL when memory ran out. */
unsigned char *fs_dump(lua_State *L, size_t *size);
static inline lua_Integer fs_tointeger(lua_State *L, int idx, int *isnum) { return lua_tointegerx(L, idx, isnum); }
static inline lua_Number fs_tonumber(lua_State *L, int idx, int *isnum) { return lua_tonumberx(L, idx, isnum); }

#endif
