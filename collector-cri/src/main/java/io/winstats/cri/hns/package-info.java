/**
 * HNS (the Host Networking Service) endpoint statistics for Windows pods: the replies of {@code vmcompute.dll}'s
 * {@code HNSCall} parsed ({@link io.winstats.cri.hns.HnsReplies}), behind a narrow port ({@link
 * io.winstats.cri.hns.HnsPort}) whose only native implementation is {@code hns.jna}.
 */
@NullMarked
package io.winstats.cri.hns;

import org.jspecify.annotations.NullMarked;
