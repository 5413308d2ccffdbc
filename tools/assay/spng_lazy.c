/* libspng for the `assay` executable, loaded on first use: only reading a PNG (texture import,
 * `replace NAME=PNG`) calls it, and linking libspng.so.0 (with the libz.so.1 it needs) costs every
 * run two more shared objects to map and relocate (docs/PERFORMANCE.md#start-up). The executable
 * defines the entry points src/image calls and loads libspng.so.0 with dlopen the first time one is
 * called; when it cannot, spng_ctx_new returns NULL (a PNG error) after one message saying why.
 * The signatures are libspng 0.7's (spng.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <spng.h>
#include <stdio.h>

static struct {
  spng_ctx* (*ctx_new)(int);
  void (*ctx_free)(spng_ctx*);
  int (*set_png_buffer)(spng_ctx*, const void*, size_t);
  int (*set_image_limits)(spng_ctx*, uint32_t, uint32_t);
  int (*set_chunk_limits)(spng_ctx*, size_t, size_t);
  int (*set_crc_action)(spng_ctx*, int, int);
  int (*decoded_image_size)(spng_ctx*, int, size_t*);
  int (*decode_image)(spng_ctx*, void*, size_t, int, int);
  int (*get_ihdr)(spng_ctx*, struct spng_ihdr*);
  const char* (*strerror)(int);
  int loaded;
} spng;
static pthread_once_t spng_once = PTHREAD_ONCE_INIT;

static void load_spng(void) {
  void* lib = dlopen("libspng.so.0", RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "assay: cannot load libspng.so.0 (libspng, needed to read PNG files): %s\n", dlerror());
    return;
  }
  void* p[10];
  static const char* const names[10] = {"spng_ctx_new", "spng_ctx_free", "spng_set_png_buffer", "spng_set_image_limits",
                                        "spng_set_chunk_limits", "spng_set_crc_action", "spng_decoded_image_size",
                                        "spng_decode_image", "spng_get_ihdr", "spng_strerror"};
  for (int i = 0; i < 10; ++i) {
    p[i] = dlsym(lib, names[i]);
    if (p[i] == NULL) {
      fprintf(stderr, "assay: libspng.so.0 has no %s\n", names[i]);
      return;
    }
  }
  *(void**)&spng.ctx_new = p[0];
  *(void**)&spng.ctx_free = p[1];
  *(void**)&spng.set_png_buffer = p[2];
  *(void**)&spng.set_image_limits = p[3];
  *(void**)&spng.set_chunk_limits = p[4];
  *(void**)&spng.set_crc_action = p[5];
  *(void**)&spng.decoded_image_size = p[6];
  *(void**)&spng.decode_image = p[7];
  *(void**)&spng.get_ihdr = p[8];
  *(void**)&spng.strerror = p[9];
  spng.loaded = 1;
}

/* Every function but spng_ctx_new takes a context only spng_ctx_new made, so libspng is loaded. */
spng_ctx* spng_ctx_new(int flags) {
  pthread_once(&spng_once, load_spng);
  return spng.loaded ? spng.ctx_new(flags) : NULL;
}
void spng_ctx_free(spng_ctx* ctx) {
  if (ctx != NULL) spng.ctx_free(ctx);
}
int spng_set_png_buffer(spng_ctx* ctx, const void* buf, size_t size) { return spng.set_png_buffer(ctx, buf, size); }
int spng_set_image_limits(spng_ctx* ctx, uint32_t w, uint32_t h) { return spng.set_image_limits(ctx, w, h); }
int spng_set_chunk_limits(spng_ctx* ctx, size_t chunk, size_t cache) { return spng.set_chunk_limits(ctx, chunk, cache); }
int spng_set_crc_action(spng_ctx* ctx, int critical, int ancillary) { return spng.set_crc_action(ctx, critical, ancillary); }
int spng_decoded_image_size(spng_ctx* ctx, int fmt, size_t* len) { return spng.decoded_image_size(ctx, fmt, len); }
int spng_decode_image(spng_ctx* ctx, void* out, size_t len, int fmt, int flags) {
  return spng.decode_image(ctx, out, len, fmt, flags);
}
int spng_get_ihdr(spng_ctx* ctx, struct spng_ihdr* ihdr) { return spng.get_ihdr(ctx, ihdr); }
const char* spng_strerror(int err) {
  pthread_once(&spng_once, load_spng);
  return spng.loaded ? spng.strerror(err) : "libspng.so.0 could not be loaded";
}
