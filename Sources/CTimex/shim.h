// The kernel clock discipline interface (adjtimex), which Glibc's Swift module does not import.
#include <sys/timex.h>
