#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one wrapper
// for each kind of argument.
static inline CURLcode sitegen_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sitegen_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sitegen_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sitegen_curl_set_write(CURL *handle, CURLoption option,
                                              size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode sitegen_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
