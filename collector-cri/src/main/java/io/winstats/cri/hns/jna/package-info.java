/**
 * The native end of {@link io.winstats.cri.hns.HnsPort}: {@code vmcompute.dll}'s {@code HNSCall} and ole32's {@code
 * CoTaskMemFree} through JNA. The only package of {@code cri.hns} that touches JNA.
 */
@NullMarked
package io.winstats.cri.hns.jna;

import org.jspecify.annotations.NullMarked;
