#include <unicode/ucol.h>

// ICU's C functions carry its version in their names (ucol_open is a macro for ucol_open_72),
// which Swift cannot call through the macro: these wrappers take the name the headers give.

static inline UCollator *sitegen_ucol_open(const char *locale, UErrorCode *status) {
    return ucol_open(locale, status);
}

static inline void sitegen_ucol_close(UCollator *collator) {
    ucol_close(collator);
}

static inline void sitegen_ucol_setAttribute(
    UCollator *collator, UColAttribute attribute, UColAttributeValue value, UErrorCode *status) {
    ucol_setAttribute(collator, attribute, value, status);
}

static inline int32_t sitegen_ucol_getSortKey(
    const UCollator *collator, const UChar *text, int32_t length, uint8_t *result, int32_t capacity) {
    return ucol_getSortKey(collator, text, length, result, capacity);
}
