import fc from 'fast-check';

// Property tests run with a fixed seed so CI is reproducible; set FC_SEED to explore others
// (a failure prints the seed and path to replay it).
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261129) });
