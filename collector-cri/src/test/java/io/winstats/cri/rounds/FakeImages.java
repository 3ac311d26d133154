package io.winstats.cri.rounds;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.winstats.cri.api.ImageFsInfoRequest;
import io.winstats.cri.api.ImageFsInfoResponse;
import io.winstats.cri.api.ImageServiceGrpc;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** A scriptable CRI image service: answers {@code ImageFsInfo} with what the test scripted, or its failure. */
final class FakeImages extends ImageServiceGrpc.ImageServiceImplBase {
  final AtomicInteger imageFsInfoCalls = new AtomicInteger();
  volatile Supplier<ImageFsInfoResponse> imageFsInfo = ImageFsInfoResponse::getDefaultInstance;

  @Override
  public void imageFsInfo(ImageFsInfoRequest request, StreamObserver<ImageFsInfoResponse> observer) {
    imageFsInfoCalls.incrementAndGet();
    try {
      observer.onNext(imageFsInfo.get());
      observer.onCompleted();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
    }
  }
}
