// adjtimex(2) from the C library, which Swift's Glibc module leaves out (the doctor's clock check).
#include <sys/timex.h>
