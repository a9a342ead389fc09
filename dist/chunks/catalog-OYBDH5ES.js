import{a,b,c,d,e}from"./chunk-R2453BGA.js";import"./chunk-RLG55I22.js";export{e as RAISED,a as RULES,d as SCANNING,c as isRuleId,b as ruleById};
