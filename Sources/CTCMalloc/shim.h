#include <gperftools/malloc_extension_c.h>
