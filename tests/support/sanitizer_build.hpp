#pragma once
// Whether this code is built with AddressSanitizer (scripts/build-sanitized):
// its shadow memory, redzones and quarantine make resident-memory bounds meaningless.
#if defined(__SANITIZE_ADDRESS__)
#define CUMAP_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUMAP_ASAN_BUILD 1
#endif
#endif
#ifndef CUMAP_ASAN_BUILD
#define CUMAP_ASAN_BUILD 0
#endif
