/* OpenMP for the `assay` executable, loaded on first use: libimagequant.a and libsquish.a (texture
 * import) call these six entry points of GCC's OpenMP runtime. Linking libgomp.so.1 costs every run
 * about 0.4 ms of start-up (docs/PERFORMANCE.md#start-up), and most runs never encode a texture; so
 * the executable defines them here and loads libgomp.so.1 with dlopen the first time one is called.
 * The signatures are GCC's (libgomp's GOMP_parallel, GOMP_atomic_start/end; omp.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
  void (*parallel)(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);
  void (*atomic_start)(void);
  void (*atomic_end)(void);
  int (*get_max_threads)(void);
  int (*get_num_threads)(void);
  int (*get_thread_num)(void);
} gomp;
static pthread_once_t gomp_once = PTHREAD_ONCE_INIT;

static void* symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "assay: libgomp.so.1 has no %s\n", name);
    abort();
  }
  return p;
}

static void load_gomp(void) {
  void* lib = dlopen("libgomp.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "assay: cannot load libgomp.so.1 (GCC's OpenMP runtime, needed to encode textures): %s\n",
            dlerror());
    abort();
  }
  *(void**)&gomp.parallel = symbol(lib, "GOMP_parallel");
  *(void**)&gomp.atomic_start = symbol(lib, "GOMP_atomic_start");
  *(void**)&gomp.atomic_end = symbol(lib, "GOMP_atomic_end");
  *(void**)&gomp.get_max_threads = symbol(lib, "omp_get_max_threads");
  *(void**)&gomp.get_num_threads = symbol(lib, "omp_get_num_threads");
  *(void**)&gomp.get_thread_num = symbol(lib, "omp_get_thread_num");
}

#define GOMP_READY() pthread_once(&gomp_once, load_gomp)

void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  GOMP_READY();
  gomp.parallel(fn, data, num_threads, flags);
}
void GOMP_atomic_start(void) {
  GOMP_READY();
  gomp.atomic_start();
}
void GOMP_atomic_end(void) {
  GOMP_READY();
  gomp.atomic_end();
}
int omp_get_max_threads(void) {
  GOMP_READY();
  return gomp.get_max_threads();
}
int omp_get_num_threads(void) {
  GOMP_READY();
  return gomp.get_num_threads();
}
int omp_get_thread_num(void) {
  GOMP_READY();
  return gomp.get_thread_num();
}
