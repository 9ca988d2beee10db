#ifndef CLAZYCURL_H
#define CLAZYCURL_H

/// libcurl, loaded at its first use instead of at process start.
///
/// The release `reflect` links Foundation statically (Package.swift), and
/// Foundation's networking calls libcurl, which with its own dependencies
/// (TLS, Kerberos, LDAP, …) is about 12M instructions of dynamic linking:
/// half of a `reflect run` start, for a library only a configured text
/// generation server ever uses. `LazyCurl.c` defines, hidden, the libcurl
/// functions Foundation calls; each loads `libcurl.so.4` with `dlopen` on
/// its first call and then calls the library's own function. The release
/// link does not name libcurl (`-disable-autolink-library curl`), so these
/// are the definitions Foundation's calls bind to.
///
/// Contract: behaviour is libcurl's own (same library, same arguments);
/// when `libcurl.so.4` cannot be loaded, the first call prints why on
/// standard error and exits with status 1 (before this, the process could
/// not start at all without it). Debug builds link libcurl through the
/// shared Foundation as before and never call these.

/// 1 once libcurl has been loaded in this process, else 0.
int reflect_lazy_curl_loaded(void);

#endif
