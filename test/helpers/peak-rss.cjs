// Preloaded with `node --require`: at exit, writes the peak RSS of this process in MB to the file
// named by SVC_PEAK_FILE (process.resourceUsage().maxRSS is in KiB).
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.SVC_PEAK_FILE, String(process.resourceUsage().maxRSS / 1024));
});
