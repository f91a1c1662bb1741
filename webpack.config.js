// Bundles www/ with the wasm-bindgen `--target web` glue in pkg/. webpack sees the
// glue's `new URL('warpscope_bg.wasm', import.meta.url)` and emits ONE .wasm that the
// page and the worker share.
const path = require('path');
const CopyPlugin = require('copy-webpack-plugin');

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
  ],
  performance: { hints: false },
  devtool: false,
};
