/* On Linux the headers are found as <harfbuzz/...> and the library is not linked (LazyLibraries
   loads it); elsewhere pkg-config's include path names them directly. */
#if __has_include(<harfbuzz/hb.h>)
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#else
#include <hb.h>
#include <hb-ot.h>
#endif
