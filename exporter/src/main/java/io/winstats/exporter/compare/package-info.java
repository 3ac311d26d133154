/**
 * {@code compare}: the daemon's Summary against the node's kubelet's, figure by figure, each with a verdict from a
 * stated tolerance. A client of both over HTTP (or of a saved file); it uses none of the daemon's own classes.
 */
@NullMarked
package io.winstats.exporter.compare;

import org.jspecify.annotations.NullMarked;
