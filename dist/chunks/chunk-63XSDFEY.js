var o=typeof process<"u"?process.env.TOOLGATE_TIMING:void 0,p=o==="1"||o==="live",a=o==="live",r=[],i=[];function m(t){if(!p)return;r.length===0&&process.once("exit",u),r.push([t,performance.now()]);let s=process.cpuUsage();i.push((s.user+s.system)/1e3),a&&process.stderr.write(`toolgate-mark ${t}
`)}function u(){m("exit");let t=0,s=r.map(([n,e])=>{let c=`toolgate-timing ${e.toFixed(1).padStart(8)} ms  +${(e-t).toFixed(1).padStart(7)} ms  ${n}`;return t=e,c});process.stderr.write(`${s.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(r.map(([n,e])=>[n,Math.round(e*10)/10])))}
toolgate-timing-cpu-json ${JSON.stringify(Object.fromEntries(r.map(([n],e)=>[n,Math.round(i[e]*10)/10])))}
`)}export{m as a};
