// The service worker: precaches the build (pages, scripts, CSS, the wasm) on the first
// visit so the page and the gallery work offline. The build injects the file list with a
// content hash per file, so a new build changes this script's bytes; the browser then
// installs the new worker, which takes over at once so the next load gets the new build.
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { clientsClaim } from 'workbox-core';

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
// Every file is static: `?embed=1&chart=…` and the like are the same page.
precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/.*/] });
