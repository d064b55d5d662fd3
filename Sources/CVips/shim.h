#include <vips/vips.h>

/*
 * libvips takes its options as variadic arguments, which Swift cannot call. These wrappers
 * fix the arguments of the few calls sitegen makes; the choices (sizes, qualities) are the
 * caller's.
 */

/* libvips warns on standard error about damaged files; sitegen reports those itself. */
static inline void sitegen_vips_ignore(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

static inline void sitegen_vips_quiet(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, sitegen_vips_ignore, NULL);
}

/* The image's header only: the pixels are decoded later, if at all. */
static inline VipsImage *sitegen_vips_header(const void *buffer, size_t length) {
    return vips_image_new_from_buffer(buffer, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/* At most `width` wide, any height, never enlarged, turned upright; shrink-on-load where the
   format has it; a truncated file is an error, not a grey band. */
static inline int sitegen_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width) {
    return vips_thumbnail_buffer(
        buffer, length, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
        "option_string", "fail_on=truncated", NULL);
}

static inline int sitegen_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width) {
    return vips_thumbnail_image(in, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL);
}

/* Encoders, with every piece of metadata stripped. */
static inline int sitegen_vips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(
        in, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, "interlace", TRUE, NULL);
}

static inline int sitegen_vips_webpsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

static inline int sitegen_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, "bitdepth", 8, NULL);
}
