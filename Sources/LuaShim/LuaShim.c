#include "LuaShim.h"
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

/* The program name the shim's messages start with (fs_set_program_name). */
static char fs_program[64] = "lua";

/* Small blocks (most of what Lua allocates: strings, tables, closures, userdata headers) come
   from 64 KB slabs, one free list per 16-byte size class; Lua passes a block's size when it frees
   it, so no header is needed. A batch run makes and closes a state per font: taking blocks from a
   free list and dropping the slabs at close costs a fraction of malloc and free for each.
   Larger blocks go to malloc. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(FS_ASAN)
#define FS_SMALL_MAX 0   /* under AddressSanitizer every block is malloc's, so overruns are caught */
#else
#define FS_SMALL_MAX 256
#endif
#define FS_CLASSES (256 / 16 + 1)
#define FS_SLAB_SIZE (64 * 1024)

typedef struct fs_slab { struct fs_slab *next; char pad[8]; } fs_slab;  /* 16 bytes: keeps alignment */

/* The heap of one state. A failed allocation makes Lua raise "not enough memory", which is a
   longjmp: allowed while Lua or C code is innermost, never through a Swift frame. So `in_swift`
   says which is innermost (the host starts in Swift; fs_pcall enters Lua; the trampoline and the
   index dispatchers enter Swift). Inside Swift an allocation over the limit succeeds but is
   noted, and the trampoline raises the memory error once the Swift function has returned. */
typedef struct {
    size_t used, limit;
    int in_swift;
    int over_limit;
    /* Instructions left before the state stops with "instruction limit reached" (-1: no limit);
       counted by the interrupt hook, 1000 at a time. Kept here: every thread shares the heap. */
    long long instructions_left;
    void *free_blocks[FS_CLASSES];
    fs_slab *slabs;
    char *bump, *bump_end;
    /* A template's region (fs_template_newstate); NULL for other states. While `building`,
       every block comes from it (a block that does not fit sets `overflowed`); blocks in it are
       never given to free(). */
    char *region, *region_end;
    int building, overflowed;
} fs_heap;

static int fs_in_region(const fs_heap *heap, const void *p) {
    return heap->region != NULL && (const char *)p >= heap->region && (const char *)p < heap->region_end;
}

/* A large block of a template being built, from the region (16-byte aligned). */
static void *fs_region_alloc(fs_heap *heap, size_t n) {
    size_t size = (n + 15) & ~(size_t)15;
    if ((size_t)(heap->bump_end - heap->bump) < size) { heap->overflowed = 1; return malloc(n); }
    void *p = heap->bump;
    heap->bump += size;
    return p;
}

static void *fs_large_alloc(fs_heap *heap, size_t n) {
    return heap->building ? fs_region_alloc(heap, n) : malloc(n);
}

static size_t fs_class(size_t n) { return n == 0 ? 1 : (n + 15) >> 4; }

static void *fs_small_alloc(fs_heap *heap, size_t n) {
    size_t c = fs_class(n);
    void *p = heap->free_blocks[c];
    if (p != NULL) { heap->free_blocks[c] = *(void **)p; return p; }
    size_t size = c << 4;
    if ((size_t)(heap->bump_end - heap->bump) < size) {
        if (heap->building) heap->overflowed = 1;
        fs_slab *slab = malloc(FS_SLAB_SIZE);
        if (slab == NULL) return NULL;
        slab->next = heap->slabs;
        heap->slabs = slab;
        heap->bump = (char *)(slab + 1);
        heap->bump_end = (char *)slab + FS_SLAB_SIZE;
    }
    p = heap->bump;
    heap->bump += size;
    return p;
}

static void fs_block_free(fs_heap *heap, void *p, size_t n) {
    if (n > FS_SMALL_MAX) { if (!fs_in_region(heap, p)) free(p); return; }
    size_t c = fs_class(n);
    *(void **)p = heap->free_blocks[c];
    heap->free_blocks[c] = p;
}

/* realloc over the two kinds of block (nsize > 0; osize is 0 for a new block). */
static void *fs_block_realloc(fs_heap *heap, void *ptr, size_t osize, size_t nsize) {
    if (ptr != NULL && osize <= FS_SMALL_MAX && nsize <= FS_SMALL_MAX && fs_class(osize) == fs_class(nsize)) return ptr;
    if (ptr != NULL && osize > FS_SMALL_MAX && nsize > FS_SMALL_MAX && !heap->building && !fs_in_region(heap, ptr))
        return realloc(ptr, nsize);
    void *p = nsize <= FS_SMALL_MAX ? fs_small_alloc(heap, nsize) : fs_large_alloc(heap, nsize);
    if (p == NULL) return NULL;
    if (ptr != NULL) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        fs_block_free(heap, ptr, osize);
    }
    return p;
}

static void *fs_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    fs_heap *heap = ud;
    if (ptr == NULL) osize = 0; /* then osize is a type tag, not a size */
    if (nsize == 0) { if (ptr != NULL) fs_block_free(heap, ptr, osize); heap->used -= osize; return NULL; }
    if (nsize > osize && heap->used - osize + nsize > heap->limit) {
        if (!heap->in_swift) return NULL;
        heap->over_limit = 1;
    }
    void *p = fs_block_realloc(heap, ptr, osize, nsize);
    if (p == NULL) {
        /* Lua assumes shrinking never fails: keep the larger block where its size class allows
           (a malloc block cannot become a small one: it would never be freed). */
        int shrinking = ptr != NULL && nsize <= osize;
        if (shrinking && !(osize > FS_SMALL_MAX && nsize <= FS_SMALL_MAX)) return ptr;
        if (!heap->in_swift && !shrinking) return NULL;
        /* The system itself is out of memory inside a Swift call, or while Lua shrinks a block
           (which it assumes cannot fail): nothing safe is left to do. */
        fprintf(stderr, "%s: out of memory\n", fs_program);
        abort();
    }
    heap->used = heap->used - osize + nsize;
    return p;
}

static fs_heap *fs_heap_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

/* Enters a Swift frame (returns the previous mode, for fs_leave_swift). */
static int fs_enter_swift(lua_State *L) {
    fs_heap *heap = fs_heap_of(L);
    int saved = heap->in_swift;
    heap->in_swift = 1;
    return saved;
}

/* Leaves it; raises the memory error an over-limit allocation inside it deferred. */
static void fs_leave_swift(lua_State *L, int saved) {
    fs_heap *heap = fs_heap_of(L);
    heap->in_swift = saved;
    if (heap->over_limit && !saved) {
        heap->over_limit = 0;
        luaL_error(L, "not enough memory (the Lua heap limit is %I bytes; FONTSHELL_LUA_MEMORY sets it)",
                   (lua_Integer)heap->limit);
    }
}

/* FONTSHELL_LUA_MEMORY: bytes, or a number with K, M or G. Default 1 GiB. */
static size_t fs_heap_limit_from_environment(void) {
    const char *text = getenv("FONTSHELL_LUA_MEMORY");
    if (text == NULL || *text == 0) return (size_t)1 << 30;
    /* fontshell refuses a malformed value before any state is made (LuaState's
       memoryEnvironmentProblem); other hosts get the default for one. */
    if (*text < '0' || *text > '9') return (size_t)1 << 30;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    int shift = 0;
    switch (end ? *end : 0) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (end == NULL || *end != 0 || value > (SIZE_MAX >> shift)) return (size_t)1 << 30;
    value <<= shift;
    return value < ((size_t)1 << 20) ? ((size_t)1 << 20) : (size_t)value;
}

void fs_set_program_name(const char *name) {
    snprintf(fs_program, sizeof fs_program, "%s", name);
}

const char *fs_program_name(void) { return fs_program; }

static int fs_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s: unprotected Lua error: %s\n", fs_program, msg ? msg : "(not a string)");
    abort();
}

static void fs_interrupt_hook(lua_State *L, lua_Debug *ar);

static lua_State *fs_newstate_on(fs_heap *heap);

lua_State *fs_newstate(void) {
    fs_heap *heap = calloc(1, sizeof *heap);
    if (heap == NULL) return NULL;
    return fs_newstate_on(heap);
}

static lua_State *fs_newstate_on(fs_heap *heap) {
    heap->limit = fs_heap_limit_from_environment();
    heap->in_swift = 1;
    heap->instructions_left = -1;
    lua_State *L = lua_newstate(fs_alloc, heap);
    if (L == NULL) { free(heap); return NULL; }
    lua_atpanic(L, fs_panic);
    /* A new state's collector starts a cycle with the first allocation and runs again each
       time the heap doubles, tracing tables that all stay alive: wasted while the libraries
       are opened. */
    lua_gc(L, LUA_GCSTOP);
    luaL_openlibs(L);
    lua_gc(L, LUA_GCRESTART);
    /* Every thread gets the interrupt check: coroutines inherit their creator's hook. */
    lua_sethook(L, fs_interrupt_hook, LUA_MASKCOUNT, 1000);
    return L;
}

/* Frees the slabs made since `stop` (the list is newest first; NULL frees them all). */
static void fs_free_slabs(fs_heap *heap, fs_slab *stop) {
    while (heap->slabs != stop) {
        fs_slab *next = heap->slabs->next;
        free(heap->slabs);
        heap->slabs = next;
    }
}

/* A template: the heap (first, so it is the allocator's user data) and what resetting puts
   back — the region's used part and the heap as they were when frozen. */
typedef struct {
    fs_heap heap;
    fs_heap frozen;
    char *copy;
    size_t copied;
    lua_Integer uses;
} fs_template;

#define FS_REGION_SIZE (1024 * 1024)
static const char fs_randomseed_key = 0;

lua_State *fs_template_newstate(void) {
#if FS_SMALL_MAX == 0
    return NULL;   /* under AddressSanitizer: fresh states, whose blocks it watches */
#else
    fs_template *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->heap.region = malloc(FS_REGION_SIZE);
    if (t->heap.region == NULL) { free(t); return NULL; }
    t->heap.region_end = t->heap.region + FS_REGION_SIZE;
    t->heap.bump = t->heap.region;
    t->heap.bump_end = t->heap.region_end;
    t->heap.building = 1;
    lua_State *L = fs_newstate_on(&t->heap);
    if (L == NULL) { free(t->heap.region); free(t); return NULL; }
    /* Kept to seed math.random afresh for each use, as a new state is seeded. */
    if (lua_getglobal(L, "math") == LUA_TTABLE) lua_getfield(L, -1, "randomseed"); else lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fs_randomseed_key);
    lua_pop(L, 1);
    return L;
#endif
}

int fs_template_freeze(lua_State *L) {
    fs_template *t = (fs_template *)fs_heap_of(L);
    if (t->heap.overflowed) return 0;
    t->copied = (size_t)(t->heap.bump - t->heap.region);
    t->copy = malloc(t->copied);
    if (t->copy == NULL) return 0;
    memcpy(t->copy, t->heap.region, t->copied);
    t->heap.building = 0;
    t->frozen = t->heap;
    return 1;
}

int fs_template_building(lua_State *L) { return fs_heap_of(L)->building; }

void fs_template_reset(lua_State *L) {
    fs_template *t = (fs_template *)fs_heap_of(L);
    lua_close(L);   /* finalizers run; blocks made since the freeze go back to malloc */
    fs_free_slabs(&t->heap, t->frozen.slabs);
    memcpy(t->heap.region, t->copy, t->copied);
    t->heap = t->frozen;   /* (the uses count is the template's, outside the heap) */
    /* A new state's seed comes from the time in seconds and the state's address, both the same
       here: seeded from the clock's nanoseconds and a count of uses instead. Nothing allocates
       (the key is a light userdata; randomseed returns two integers). */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fs_randomseed_key) == LUA_TFUNCTION) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        lua_pushinteger(L, (lua_Integer)now.tv_sec * 1000000000 + now.tv_nsec);
        lua_pushinteger(L, ++t->uses ^ (lua_Integer)(intptr_t)t);
        lua_pcall(L, 2, 0, 0);
    }
    lua_settop(L, 0);
}

void fs_closestate(lua_State *L) {
    fs_heap *heap = fs_heap_of(L);
    lua_close(L);
    fs_free_slabs(heap, NULL);
    if (heap->region != NULL) {
        fs_template *t = (fs_template *)heap;
        free(heap->region);
        free(t->copy);
    }
    free(heap);
}

void fs_set_memory_limit(lua_State *L, size_t bytes) { fs_heap_of(L)->limit = bytes; }
void fs_gc_stop(lua_State *L) { lua_gc(L, LUA_GCSTOP); }
void fs_gc_restart(lua_State *L) { lua_gc(L, LUA_GCRESTART); }
void fs_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
size_t fs_memory_limit(lua_State *L) { return fs_heap_of(L)->limit; }
size_t fs_memory_used(lua_State *L) { return fs_heap_of(L)->used; }

/* Calls the Swift function (upvalue 1) and raises on its behalf once it has returned. */
static int fs_trampoline(lua_State *L) {
    fs_function fn = (fs_function)lua_touserdata(L, lua_upvalueindex(1));
    int saved = fs_enter_swift(L);
    int status = fn(L);
    fs_leave_swift(L, saved);
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
    fs_heap *heap = fs_heap_of(L);
    int saved = heap->in_swift;
    heap->in_swift = 0;
    int status = lua_pcall(L, nargs, nresults, base);
    heap->in_swift = saved;
    heap->over_limit = 0;
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
    fs_heap *heap = fs_heap_of(L);
    int saved = heap->in_swift;
    heap->in_swift = 0;
    int status = lua_pcall(L, 1, 1, 0);
    heap->in_swift = saved;
    return status;
}

static int fs_check_self(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return 0;
    int same = lua_rawequal(L, -1, lua_upvalueindex(3));
    lua_pop(L, 1);
    return same;
}

static const fs_member *fs_find_member(const fs_members *members, const char *key, size_t length) {
    int low = 0, high = members->count - 1;
    while (low <= high) {
        int middle = low + (high - low) / 2;
        const fs_member *m = &members->sorted[middle];
        int order = memcmp(m->name, key, m->length < length ? m->length : length);
        if (order == 0) order = (m->length > length) - (m->length < length);
        if (order == 0) return m;
        if (order < 0) low = middle + 1; else high = middle - 1;
    }
    return NULL;
}

/* The field id of string key 2 (0 when it names no field), learning it into the cache
   (upvalue 1). A method is pushed, cached, and 1 returned instead when `make_methods` is set. */
static int fs_lookup_member(lua_State *L, int make_methods, lua_Integer *field) {
    *field = 0;
    if (lua_type(L, 2) != LUA_TSTRING) return 0;
    lua_pushvalue(L, 2);
    int known = lua_rawget(L, lua_upvalueindex(1));
    if (known == LUA_TFUNCTION && make_methods) return 1;
    if (known == LUA_TNUMBER) *field = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (known != LUA_TNIL) return 0;
    size_t length;
    const char *key = lua_tolstring(L, 2, &length);
    const fs_member *m = fs_find_member(lua_touserdata(L, lua_upvalueindex(2)), key, length);
    if (m == NULL || (m->method != NULL && !make_methods)) return 0;
    lua_pushvalue(L, 2);
    if (m->method != NULL) {
        lua_pushvalue(L, lua_upvalueindex(3));
        fs_pushfunction(L, m->method, 1);
    } else {
        *field = m->field;
        lua_pushinteger(L, m->field);
    }
    lua_pushvalue(L, -1);
    lua_insert(L, -3);                      /* value, key, value */
    lua_rawset(L, lua_upvalueindex(1));
    if (m->method != NULL) return 1;
    lua_pop(L, 1);
    return 0;
}

/* __index: a method, else the Swift getter with (self, key, field id). */
static int fs_index(lua_State *L) {
    if (!fs_check_self(L)) return luaL_error(L, "bad self for field access");
    lua_Integer field;
    if (fs_lookup_member(L, 1, &field)) return 1;
    lua_settop(L, 2);
    lua_pushinteger(L, field);
    fs_function getter = (fs_function)lua_touserdata(L, lua_upvalueindex(4));
    int saved = fs_enter_swift(L);
    int status = getter(L);
    fs_leave_swift(L, saved);
    if (status >= 0) return status;
    if (status == FS_RAISE_MESSAGE) { luaL_where(L, 1); lua_insert(L, -2); lua_concat(L, 2); }
    return lua_error(L);
}

static int fs_newindex(lua_State *L) {
    if (!fs_check_self(L)) return luaL_error(L, "bad self for field assignment");
    lua_Integer field;
    fs_lookup_member(L, 0, &field);
    lua_settop(L, 3);
    lua_pushinteger(L, field);
    fs_function setter = (fs_function)lua_touserdata(L, lua_upvalueindex(4));
    int saved = fs_enter_swift(L);
    int status = setter(L);
    fs_leave_swift(L, saved);
    if (status >= 0) return 0;
    if (status == FS_RAISE_MESSAGE) { luaL_where(L, 1); lua_insert(L, -2); lua_concat(L, 2); }
    return lua_error(L);
}

/* Expects the member cache, the members and the metatable on the stack; pops them. */
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

/* Ctrl-C. The handler only notes the signal; a count hook that every thread carries (set on the
   main state at creation, inherited by coroutines) raises "interrupted!" in Lua's own frame.
   The request stays set while the code runs, so a pcall cannot swallow it for good. */
static volatile sig_atomic_t interrupt_requested = 0;
static volatile sig_atomic_t interrupt_pending = 0;
static volatile sig_atomic_t lua_running = 0;

static void fs_interrupt_hook(lua_State *L, lua_Debug *ar) {
    fs_heap *heap = fs_heap_of(L);
    int exhausted = 0;
    if (heap->instructions_left >= 0) {
        if (ar->event == LUA_HOOKCOUNT) heap->instructions_left -= lua_gethookcount(L);
        exhausted = heap->instructions_left <= 0;
    }
    if (!interrupt_requested && !exhausted) {
        /* Back to the cheap check once an interrupt is over. */
        if (lua_gethookcount(L) == 1) lua_sethook(L, fs_interrupt_hook, LUA_MASKCOUNT, 1000);
        return;
    }
    /* From now on this thread also raises at every call: a call to pcall is checked before
       pcall protects anything, so `while true do pcall(f) end` cannot swallow the stop. */
    lua_sethook(L, fs_interrupt_hook, LUA_MASKCOUNT | LUA_MASKCALL, 1);
    if (exhausted) heap->instructions_left = 0;
    luaL_error(L, exhausted ? "instruction limit reached" : "interrupted!");
}

void fs_set_instruction_limit(lua_State *L, long long count) { fs_heap_of(L)->instructions_left = count; }

static void fs_on_sigint(int sig) {
    (void)sig;
    if (lua_running) interrupt_requested = 1;
    else interrupt_pending = 1;
}

void fs_install_interrupt_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fs_on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: a blocking read at the prompt returns EINTR */
    sigaction(SIGINT, &action, NULL);
    /* A parent may have started us with SIGINT blocked (the mask is inherited across exec). */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int fs_take_interrupt(void) {
    int pending = interrupt_pending || interrupt_requested;
    interrupt_pending = 0;
    interrupt_requested = 0;
    return pending;
}

int fs_interrupted(void) { return interrupt_requested; }

void fs_set_running(int running) {
    /* Ctrl-C just before the code started (while fonts were opening) still stops it. */
    if (running && interrupt_pending) { interrupt_pending = 0; interrupt_requested = 1; }
    lua_running = running;
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

/* lua_dump into a growing malloc'd buffer. */
struct fs_dump_buffer { unsigned char *data; size_t size, capacity; int failed; };

static int fs_dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
    (void)L;
    struct fs_dump_buffer *b = ud;
    if (b->failed) return 1;
    if (b->size + sz > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + sz) capacity *= 2;
        unsigned char *grown = realloc(b->data, capacity);
        if (!grown) { b->failed = 1; return 1; }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, p, sz);
    b->size += sz;
    return 0;
}

unsigned char *fs_dump(lua_State *L, size_t *size) {
    struct fs_dump_buffer b = {NULL, 0, 0, 0};
    if (lua_dump(L, fs_dump_writer, &b, 0) != 0 || b.failed) { free(b.data); return NULL; }
    *size = b.size;
    return b.data;
}
