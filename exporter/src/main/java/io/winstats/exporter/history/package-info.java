/**
 * The node page's short history: the last samples of the figures the page charts (the node's, each pod's and each
 * container's), recorded as each sample is published and held in memory under a hard byte limit, and the JSON the
 * page and scripts read ({@code /api/v1/history/...}, docs/NODE-PAGE.md). Nothing here is rendered until someone
 * asks.
 */
@NullMarked
package io.winstats.exporter.history;

import org.jspecify.annotations.NullMarked;
