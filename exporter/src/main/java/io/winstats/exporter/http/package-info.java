/**
 * The Undertow server: routing, method and path checks, and serving rendered bodies cached per snapshot version. The
 * only package that imports Undertow.
 */
@NullMarked
package io.winstats.exporter.http;

import org.jspecify.annotations.NullMarked;
