/**
 * The daemon: command line, wiring of the sources to their sampling loops, and start-up and shutdown. Serving lives
 * in {@code http}, exposition in {@code metrics}, the loops and the published snapshot in {@code sampling}.
 */
@NullMarked
package io.winstats.exporter;

import org.jspecify.annotations.NullMarked;
