// libxcrypt: crypt_r and crypt_gensalt_rn for the console PIN hash.
#include <crypt.h>
