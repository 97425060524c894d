#!/usr/bin/env node
import { main } from '../dist/cli/cli.js';

await main();
