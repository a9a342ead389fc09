var t={clean:0,findings:1,usage:2,sourceFailed:3},r=["text","json","markdown","sarif"];export{t as a,r as b};
