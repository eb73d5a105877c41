# sendbox as a container: the API on 0.0.0.0:4010, the web inbox at /__sandbox/ui/, data in /data.
#   docker build -t sendbox .        (or: buildah bud --format docker -t sendbox .)
#   docker run -p 4010:4010 -v sendbox-data:/data sendbox
# Off loopback the /__sandbox controls need the admin token: printed on stderr at start, or set
# SENDBOX_ADMIN_TOKEN. Every flag is also an environment variable (SENDBOX_*; README, Command line).
# How it is built and tested here without a Docker daemon: docs/decisions/container-image.md.

# ---- build: the whole project, built as `npm install` builds it --------------------------------
FROM node:24-bookworm-slim AS build
ENV npm_config_update_notifier=false
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
# The sources, in one layer: the context holds only what the build reads (.dockerignore lists it).
COPY . .
# Built as `npm run build` builds it; then what runs: the bundled CLI and the web inbox. The
# headless CLI loads one package from node_modules, the MCP SDK (on the first /__sandbox/mcp
# request): installed alone, at the version the lockfile holds, without dev or peer dependencies.
RUN npm run build \
 && mkdir -p /out/app/dist /out/mcp \
 && cp -r dist/bin dist/web /out/app/dist/ \
 && rm -f /out/app/dist/bin/sendbox-ui.mjs /out/app/dist/bin/*.d.ts \
 && node -e "const l=require('./package-lock.json');const v=l.packages['node_modules/@modelcontextprotocol/sdk'].version;require('fs').writeFileSync('/out/mcp/package.json',JSON.stringify({private:true,dependencies:{'@modelcontextprotocol/sdk':v}}))" \
 && cd /out/mcp && npm install --omit=dev --omit=peer --ignore-scripts --no-audit --no-fund --no-package-lock --loglevel=error \
 && mv /out/mcp/node_modules /out/app/node_modules

# ---- run: Node and the files above, nothing else ------------------------------------------------
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    SENDBOX_HOST=0.0.0.0 \
    SENDBOX_PORT=4010 \
    SENDBOX_DATA=/data/sendbox.db \
    SENDBOX_LOG_FORMAT=json \
    SENDBOX_NO_UI=1
WORKDIR /app
COPY --from=build /out/app /app
# The compile cache of the bundle is made here, once, so each start reads it instead of compiling.
RUN mkdir -p /data /app/node_modules/.cache \
 && SENDBOX_COMPILE_CACHE_AT_EXIT=1 node /app/dist/bin/sendbox.js --version \
 && chown -R node:node /data /app/node_modules/.cache
USER node
VOLUME /data
EXPOSE 4010
# Healthy when /__sandbox/health answers: 200 with SENDBOX_ADMIN_TOKEN set, or the guard's 401 when
# the token was generated (the answer proves the server is up; its body stays behind the token).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SENDBOX_PORT||4010)+'/__sandbox/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1: sendbox handles SIGTERM and SIGINT itself (in-flight answered, store written).
# Node's flags are `npm start`'s (START_NODE_FLAGS in scripts/cli-loader.mjs says why).
ENTRYPOINT ["node", "--no-concurrent-recompilation", "/app/dist/bin/sendbox.js"]
CMD ["serve"]
