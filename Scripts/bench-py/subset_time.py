"""pyftsubset's work timed inside the process, after the imports: fontTools.subset.main with
the arguments given (what the pyftsubset command runs). Prints seconds on stderr.
Usage: python3 subset_time.py PYFTSUBSET-ARGUMENTS..."""
import sys
import time

from fontTools import subset

start = time.perf_counter()
subset.main(sys.argv[1:])
print(time.perf_counter() - start, file=sys.stderr)
