/**
 * The Undertow server: routing, method and path checks, serving rendered bodies cached per snapshot version, the
 * exporter-toolkit web configuration (TLS with certificates re-read on change, client certificates, bcrypt basic
 * auth, headers, rate limit), the bearer token, and the configurable HTTP limits. The only package that imports
 * Undertow.
 */
@NullMarked
package io.winstats.exporter.http;

import org.jspecify.annotations.NullMarked;
