// Bundles www/ with the wasm-bindgen `--target web` glue in pkg/. webpack sees the
// glue's `new URL('warpscope_bg.wasm', import.meta.url)` and emits ONE .wasm that the
// page and the worker share. www/sw.js becomes dist/sw.js with the list of every emitted
// file injected (content-hashed names as they are, the others with an MD5 revision).
const path = require('path');
const CopyPlugin = require('copy-webpack-plugin');
const { InjectManifest } = require('workbox-webpack-plugin');

module.exports = {
  entry: { app: './www/app.js', gallery: './www/gallery.js' },
  output: {
    path: path.resolve(__dirname, 'dist'),
    filename: '[name].js',
    chunkFilename: '[name].[contenthash:8].js',
    assetModuleFilename: '[name].[contenthash:8][ext]',
    clean: true,
  },
  plugins: [
    new CopyPlugin({ patterns: [{ from: 'www/index.html' }, { from: 'www/gallery.html' }, { from: 'www/style.css' }] }),
    new InjectManifest({ swSrc: './www/sw.js', swDest: 'sw.js' }),
  ],
  performance: { hints: false },
  devtool: false,
};
