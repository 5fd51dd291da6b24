# Meadow in a container: `docker build -t meadow .`, or `docker compose up` (compose.yaml).
# docs/operations.md ("Containers") says what of this recipe was run and what was not.

ARG PYTHON=3.12

# Build: Meadow and its dependencies (PostgreSQL's driver and Redis's client included) into
# a virtual environment, the only thing the image keeps from this stage.
FROM python:${PYTHON}-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/meadow
WORKDIR /src
COPY pyproject.toml README.md hatch_build.py ./
COPY meadow ./meadow
# The documentation goes into the package (`meadow docs`): hatch_build.py.
COPY docs ./docs
RUN /opt/meadow/bin/pip install '.[cluster]'

# Run: the environment, the entry point, a user of its own and the data directory.
FROM python:${PYTHON}-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin meadow \
    && mkdir -p /data \
    && chown meadow:meadow /data
COPY --from=build /opt/meadow /opt/meadow
COPY deploy/entrypoint.sh /usr/local/bin/meadow-entrypoint
ENV PATH=/opt/meadow/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    MEADOW_DATA_DIR=/data \
    MEADOW_HOST=0.0.0.0 \
    MEADOW_PORT=8000
USER meadow
WORKDIR /data
# SQLite's database (when no MEADOW_DATABASE_URL is set) lives here.
VOLUME ["/data"]
EXPOSE 8000
# SIGTERM drains the server (MEADOW_DRAIN_SECONDS, 10 s): give `docker stop -t` more.
STOPSIGNAL SIGTERM
# Alive: the process answers. (Ready for requests is /readyz: compose.yaml asks that.)
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('MEADOW_PORT', '8000'), timeout=2)"]
ENTRYPOINT ["meadow-entrypoint"]
CMD ["serve"]
