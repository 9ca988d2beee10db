// The libcurl functions Foundation's networking calls (the undefined curl
// symbols of the toolchain's static lib_CFURLSessionInterface.a), each
// forwarding to libcurl.so.4 loaded at the first call. See CLazyCurl.h.
//
// Types are the C ABI's: handles are pointers, CURLcode / CURLMcode /
// CURLUcode / CURLoption / CURLINFO / CURLMoption / CURLUPart /
// CURLversion are enums (int), curl_socket_t is int. The variadic setters
// and getter take exactly one value after the option: a long, a pointer,
// a function pointer or a curl_off_t, each one 64-bit integer-class
// argument on the LP64 Linux ABIs, so it is read as a pointer-sized value
// and passed on unchanged.
#include "CLazyCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

static void *library;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "unknown error");
    }
}

int reflect_lazy_curl_loaded(void) {
    return __atomic_load_n(&library, __ATOMIC_ACQUIRE) != NULL;
}

static void *resolve(const char *name) {
    pthread_once(&once, load);
    void *function = library ? dlsym(library, name) : NULL;
    if (!function) {
        if (library) snprintf(failure, sizeof failure, "libcurl.so.4 has no %s", name);
        fprintf(stderr, "reflect: cannot use libcurl (libcurl.so.4, needed to reach the text generation server): %s\n",
                failure);
        exit(1);
    }
    return function;
}

// `fn`: the library's function of type `type`, looked up once.
#define FORWARD(type, name)                                              \
    static type cached_##name;                                          \
    type fn = __atomic_load_n(&cached_##name, __ATOMIC_ACQUIRE);          \
    if (!fn) {                                                           \
        fn = (type)resolve(#name);                                       \
        __atomic_store_n(&cached_##name, fn, __ATOMIC_RELEASE);          \
    }

typedef int (*global_init_f)(long);
HIDDEN int curl_global_init(long flags) {
    FORWARD(global_init_f, curl_global_init)
    return fn(flags);
}

typedef void *(*new_handle_f)(void);
HIDDEN void *curl_easy_init(void) {
    FORWARD(new_handle_f, curl_easy_init)
    return fn();
}

typedef void (*free_handle_f)(void *);
HIDDEN void curl_easy_cleanup(void *easy) {
    FORWARD(free_handle_f, curl_easy_cleanup)
    fn(easy);
}

typedef int (*handle_option_value_f)(void *, int, ...);
HIDDEN int curl_easy_setopt(void *easy, int option, ...) {
    va_list args;
    va_start(args, option);
    void *value = va_arg(args, void *);
    va_end(args);
    FORWARD(handle_option_value_f, curl_easy_setopt)
    return fn(easy, option, value);
}

HIDDEN int curl_easy_getinfo(void *easy, int info, ...) {
    va_list args;
    va_start(args, info);
    void *out = va_arg(args, void *);
    va_end(args);
    FORWARD(handle_option_value_f, curl_easy_getinfo)
    return fn(easy, info, out);
}

typedef int (*handle_int_f)(void *, int);
HIDDEN int curl_easy_pause(void *easy, int bitmask) {
    FORWARD(handle_int_f, curl_easy_pause)
    return fn(easy, bitmask);
}

typedef const char *(*strerror_f)(int);
HIDDEN const char *curl_easy_strerror(int code) {
    FORWARD(strerror_f, curl_easy_strerror)
    return fn(code);
}

HIDDEN void curl_free(void *pointer) {
    FORWARD(free_handle_f, curl_free)
    fn(pointer);
}

HIDDEN void *curl_multi_init(void) {
    FORWARD(new_handle_f, curl_multi_init)
    return fn();
}

typedef int (*multi_easy_f)(void *, void *);
HIDDEN int curl_multi_add_handle(void *multi, void *easy) {
    FORWARD(multi_easy_f, curl_multi_add_handle)
    return fn(multi, easy);
}

HIDDEN int curl_multi_remove_handle(void *multi, void *easy) {
    FORWARD(multi_easy_f, curl_multi_remove_handle)
    return fn(multi, easy);
}

typedef int (*multi_assign_f)(void *, int, void *);
HIDDEN int curl_multi_assign(void *multi, int socket, void *pointer) {
    FORWARD(multi_assign_f, curl_multi_assign)
    return fn(multi, socket, pointer);
}

typedef int (*multi_cleanup_f)(void *);
HIDDEN int curl_multi_cleanup(void *multi) {
    FORWARD(multi_cleanup_f, curl_multi_cleanup)
    return fn(multi);
}

typedef void *(*info_read_f)(void *, int *);
HIDDEN void *curl_multi_info_read(void *multi, int *queued) {
    FORWARD(info_read_f, curl_multi_info_read)
    return fn(multi, queued);
}

HIDDEN int curl_multi_setopt(void *multi, int option, ...) {
    va_list args;
    va_start(args, option);
    void *value = va_arg(args, void *);
    va_end(args);
    FORWARD(handle_option_value_f, curl_multi_setopt)
    return fn(multi, option, value);
}

typedef int (*socket_action_f)(void *, int, int, int *);
HIDDEN int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    FORWARD(socket_action_f, curl_multi_socket_action)
    return fn(multi, socket, events, running);
}

typedef void *(*slist_append_f)(void *, const char *);
HIDDEN void *curl_slist_append(void *list, const char *text) {
    FORWARD(slist_append_f, curl_slist_append)
    return fn(list, text);
}

HIDDEN void curl_slist_free_all(void *list) {
    FORWARD(free_handle_f, curl_slist_free_all)
    fn(list);
}

HIDDEN void *curl_url(void) {
    FORWARD(new_handle_f, curl_url)
    return fn();
}

typedef int (*url_get_f)(const void *, int, char **, unsigned int);
HIDDEN int curl_url_get(const void *url, int part, char **out, unsigned int flags) {
    FORWARD(url_get_f, curl_url_get)
    return fn(url, part, out, flags);
}

typedef int (*url_set_f)(void *, int, const char *, unsigned int);
HIDDEN int curl_url_set(void *url, int part, const char *text, unsigned int flags) {
    FORWARD(url_set_f, curl_url_set)
    return fn(url, part, text, flags);
}

typedef char *(*version_f)(void);
HIDDEN char *curl_version(void) {
    FORWARD(version_f, curl_version)
    return fn();
}

typedef void *(*version_info_f)(int);
HIDDEN void *curl_version_info(int which) {
    FORWARD(version_info_f, curl_version_info)
    return fn(which);
}
