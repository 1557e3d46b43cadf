export { formatEpisodeTrace, type TraceFormatOptions } from './format-episode-trace.js';
