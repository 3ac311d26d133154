/**
 * The daemon's log lines: an SLF4J provider that keeps each event's {@code key={}} fields apart from their values,
 * and the {@code java.util.logging} handler that writes every record, the libraries' too, as one logfmt or JSON line.
 */
@NullMarked
package io.winstats.exporter.logging;

import org.jspecify.annotations.NullMarked;
