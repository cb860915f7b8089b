/* HarfBuzz, its subsetter and fontconfig, loaded on first use (Linux).

   Package.swift does not link these libraries on Linux (lazySystemLibrary). Instead
   LazyLibraries.c, written by Scripts/gen-lazy-libraries, defines each function fontshell calls
   in them under its own name: the first call dlopens the library, and every call goes on to the
   real function. A process that never shapes text, subsets or asks the registry then loads
   neither them nor GLib, Graphite, PCRE and expat behind them (a tenth of a start). Nothing is
   declared here: Swift keeps calling the libraries through CHarfBuzz, CHarfBuzzSubset and
   CFontconfig. Elsewhere the file is empty and the libraries are linked as usual. */
