var o=typeof process<"u"?process.env.TOOLGATE_TIMING:void 0,c=o==="1"||o==="live",a=o==="live",n=[];function p(e){c&&(n.length===0&&process.once("exit",d),n.push([e,performance.now()]),a&&process.stderr.write(`toolgate-mark ${e}
`))}function d(){p("exit");let e=0,i=n.map(([r,t])=>{let s=`toolgate-timing ${t.toFixed(1).padStart(8)} ms  +${(t-e).toFixed(1).padStart(7)} ms  ${r}`;return e=t,s});process.stderr.write(`${i.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(n.map(([r,t])=>[r,Math.round(t*10)/10])))}
`)}export{p as a};
