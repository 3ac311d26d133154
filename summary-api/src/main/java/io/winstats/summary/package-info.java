/**
 * The kubelet Summary API (stats/v1alpha1) as immutable records with the kubelet's exact JSON names, the pure
 * {@link io.winstats.summary.SummaryAssembler} that builds one from node and pod samples, and its JSON writer. No HTTP
 * here.
 */
@NullMarked
package io.winstats.summary;

import org.jspecify.annotations.NullMarked;
