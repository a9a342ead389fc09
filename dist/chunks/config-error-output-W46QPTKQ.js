import{g as r}from"./chunk-A25XUDJH.js";import{a as i}from"./chunk-MVBPBZQZ.js";import"./chunk-RLG55I22.js";function f(o){let n=o.location?`${i(o.location)}: `:"";process.stderr.write(`toolgate: error: ${r(n+o.message,2e3)}
${o.fix?`  fix: ${r(o.fix,2e3)}
`:""}`);for(let t of o.alsoLines())process.stderr.write(`  also: ${r(t,2e3)}
`)}export{f as writeConfigError};
