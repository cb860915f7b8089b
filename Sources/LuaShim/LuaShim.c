#include "LuaShim.h"
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void *fs_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud; (void)osize;
    if (nsize == 0) { free(ptr); return NULL; }
    void *p = realloc(ptr, nsize);
    if (p == NULL) { fputs("fontshell: out of memory\n", stderr); abort(); }
    return p;
}

static int fs_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "fontshell: unprotected Lua error: %s\n", msg ? msg : "(not a string)");
    abort();
}

lua_State *fs_newstate(void) {
    lua_State *L = lua_newstate(fs_alloc, NULL);
    if (L == NULL) return NULL;
    lua_atpanic(L, fs_panic);
    luaL_openlibs(L);
    return L;
}

/* Calls the Swift function (upvalue 1) and raises on its behalf once it has returned. */
static int fs_trampoline(lua_State *L) {
    fs_function fn = (fs_function)lua_touserdata(L, lua_upvalueindex(1));
    int status = fn(L);
    if (status >= 0) return status;
    if (status == FS_RAISE_MESSAGE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

void fs_pushfunction(lua_State *L, fs_function fn, int nup) {
    lua_pushlightuserdata(L, (void *)fn);
    lua_insert(L, -(nup + 1));
    lua_pushcclosure(L, fs_trampoline, nup + 1);
}

int fs_traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int fs_pcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, fs_traceback);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

static int fs_tostring_body(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

int fs_tostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, fs_tostring_body);
    lua_pushvalue(L, idx);
    return lua_pcall(L, 1, 1, 0);
}

static int fs_check_self(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return 0;
    int same = lua_rawequal(L, -1, lua_upvalueindex(3));
    lua_pop(L, 1);
    return same;
}

/* __index: methods table, then field ids, then the Swift getter with (self, key, id). */
static int fs_index(lua_State *L) {
    if (!fs_check_self(L)) return luaL_error(L, "bad self for field access");
    if (lua_type(L, 2) == LUA_TSTRING) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
        lua_pop(L, 1);
    }
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNUMBER) { lua_pop(L, 1); lua_pushinteger(L, 0); }
    lua_settop(L, 3);
    fs_function getter = (fs_function)lua_touserdata(L, lua_upvalueindex(4));
    int status = getter(L);
    if (status >= 0) return status;
    if (status == FS_RAISE_MESSAGE) { luaL_where(L, 1); lua_insert(L, -2); lua_concat(L, 2); }
    return lua_error(L);
}

static int fs_newindex(lua_State *L) {
    if (!fs_check_self(L)) return luaL_error(L, "bad self for field assignment");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNUMBER) { lua_pop(L, 1); lua_pushinteger(L, 0); }
    lua_settop(L, 4);
    fs_function setter = (fs_function)lua_touserdata(L, lua_upvalueindex(4));
    int status = setter(L);
    if (status >= 0) return 0;
    if (status == FS_RAISE_MESSAGE) { luaL_where(L, 1); lua_insert(L, -2); lua_concat(L, 2); }
    return lua_error(L);
}

/* Expects methods, fields and the metatable on the stack; pops them. */
void fs_pushindexer(lua_State *L, fs_function getter) {
    lua_pushlightuserdata(L, (void *)getter);
    lua_pushcclosure(L, fs_index, 4);
}

void fs_pushnewindexer(lua_State *L, fs_function setter) {
    lua_pushlightuserdata(L, (void *)setter);
    lua_pushcclosure(L, fs_newindex, 4);
}

void fs_push_argerror(lua_State *L, int arg, const char *extramsg, const char *fallback_name) {
    lua_Debug ar;
    const char *name = fallback_name;
    if (lua_getstack(L, 0, &ar)) {
        lua_getinfo(L, "n", &ar);
        if (ar.name != NULL) name = ar.name;
        if (ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0) {
            arg--;
            if (arg == 0) { lua_pushfstring(L, "calling '%s' on bad self (%s)", name, extramsg); return; }
        }
    }
    lua_pushfstring(L, "bad argument #%d to '%s' (%s)", arg, name, extramsg);
}

/* Ctrl-C, as lua.c does it: the handler only sets a hook; the hook raises in Lua's own frame. */
static lua_State *volatile interrupt_target = NULL;
static volatile sig_atomic_t interrupt_pending = 0;
static volatile sig_atomic_t lua_running = 0;

static void fs_interrupt_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted!");
}

static void fs_on_sigint(int sig) {
    (void)sig;
    if (lua_running && interrupt_target != NULL) {
        lua_sethook(interrupt_target, fs_interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    } else {
        interrupt_pending = 1;
    }
}

void fs_install_interrupt_handler(lua_State *L) {
    interrupt_target = L;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fs_on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: a blocking read at the prompt returns EINTR */
    sigaction(SIGINT, &action, NULL);
}

int fs_take_interrupt(void) {
    int pending = interrupt_pending;
    interrupt_pending = 0;
    return pending;
}

void fs_set_running(int running) {
    lua_running = running;
    if (!running && interrupt_target != NULL) lua_sethook(interrupt_target, NULL, 0, 0);
}

static const char fs_classes_key = 0;

static void fs_push_classes(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fs_classes_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &fs_classes_key);
    }
}

void fs_push_class_metatable(lua_State *L, int class_id) {
    fs_push_classes(L);
    lua_rawgeti(L, -1, class_id);
    lua_remove(L, -2);
}

void fs_store_class_metatable(lua_State *L, int class_id) {
    fs_push_classes(L);
    lua_insert(L, -2);
    lua_rawseti(L, -2, class_id);
    lua_pop(L, 1);
}

int fs_is_class(lua_State *L, int idx, int class_id) {
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return 0;
    fs_push_class_metatable(L, class_id);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same;
}
