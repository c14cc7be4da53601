# writegate serve in a container: the core install (onnxruntime + tokenizers, no torch) plus the
# `stores` extra (psycopg, qdrant-client) so that `writegate relabel --write-back postgresql://…`
# runs from the same image; the shipped model travels inside the wheel. docs/deploy.md.
#
#   docker build -t writegate:0.1.0 .
#   docker run --rm -p 127.0.0.1:50051:50051 writegate:0.1.0
#
# Settings are WRITEGATE_* environment variables (docs/serving.md), e.g. -e WRITEGATE_BATCH_WORKERS=2.
# tests/test_deploy.py runs the entry command, the health check and the environment declared
# below outside a container (no Docker engine runs where the tests run).

ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --disable-pip-version-check --no-deps --wheel-dir /wheels .

FROM python:${PYTHON_VERSION}-slim
# `--build-arg EXTRAS=` gives the bare core install (serve, normalize, classify, relabel on JSONL).
ARG EXTRAS=stores
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/writegate writegate
COPY --from=wheel /wheels /tmp/wheels
RUN wheel="$(ls /tmp/wheels/writegate-*.whl)" \
    && pip install --no-cache-dir --disable-pip-version-check --root-user-action=ignore "${wheel}${EXTRAS:+[$EXTRAS]}" \
    && rm -rf /tmp/wheels \
    && ! pip show --quiet torch 2>/dev/null
USER writegate
WORKDIR /home/writegate
ENV PYTHONUNBUFFERED=1 WRITEGATE_HOST=0.0.0.0 WRITEGATE_PORT=50051
EXPOSE 50051
STOPSIGNAL SIGTERM
# The standard gRPC health service, over the container's loopback (health needs no token).
# Prints the status; exits 0 on SERVING, 1 otherwise: loading, shutting down, no answer.
HEALTHCHECK --interval=15s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, grpc; from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; f = g.HealthStub(grpc.insecure_channel('127.0.0.1:' + os.environ.get('WRITEGATE_PORT', '50051'))).Check.future(h.HealthCheckRequest(), timeout=5); e = f.exception(); s = e.code().name if e else h.HealthCheckResponse.ServingStatus.Name(f.result().status); print(s); sys.exit(0 if s == 'SERVING' else 1)"]
ENTRYPOINT ["writegate"]
CMD ["serve"]
