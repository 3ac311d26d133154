/**
 * The per-part state of the daemon: each part it depends on (the node source, the runtime endpoint and its stats
 * calls, the Windows task source and HNS, the cgroups, the web configuration, the listen address) as ok, degraded,
 * failed or not applicable, with its last success, last error and error count. One model for {@code check}, the
 * running daemon's {@code /status} and the start-up lines.
 */
@NullMarked
package io.winstats.exporter.parts;

import org.jspecify.annotations.NullMarked;
