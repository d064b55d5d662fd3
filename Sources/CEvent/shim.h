// System headers first, as the rest of the toolchain sees them: libevent's
// event-config.h defines _GNU_SOURCE, which would otherwise give fd_set (and others)
// a different shape in this module than in Dispatch's.
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/keyvalq_struct.h>
#include <event2/util.h>
