// Each .lua file of this folder, as bytes (C23 #embed; the build recompiles this file when one
// of them changes).
#include "LuaPrograms.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const char prelude[] = {
#embed "prelude.lua"
};
static const char check_runner[] = {
#embed "check-runner.lua"
};
static const char check_stub[] = {
#embed "check-stub.lua"
};
static const char check_worker[] = {
#embed "check-worker.lua"
};
static const char batch_capture[] = {
#embed "batch-capture.lua"
};
static const char batch_finish[] = {
#embed "batch-finish.lua"
};
static const char sandbox[] = {
#embed "sandbox.lua"
};

const fs_lua_program fs_lua_prelude = {prelude, sizeof prelude};
const fs_lua_program fs_lua_check_runner = {check_runner, sizeof check_runner};
const fs_lua_program fs_lua_check_stub = {check_stub, sizeof check_stub};
const fs_lua_program fs_lua_check_worker = {check_worker, sizeof check_worker};
const fs_lua_program fs_lua_batch_capture = {batch_capture, sizeof batch_capture};
const fs_lua_program fs_lua_batch_finish = {batch_finish, sizeof batch_finish};
const fs_lua_program fs_lua_sandbox = {sandbox, sizeof sandbox};
