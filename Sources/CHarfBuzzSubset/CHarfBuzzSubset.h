/* As CHarfBuzz.h: <harfbuzz/...> on Linux (LazyLibraries loads the library), pkg-config's path elsewhere. */
#if __has_include(<harfbuzz/hb-subset.h>)
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-subset.h>
#else
#include <hb.h>
#include <hb-subset.h>
#endif
