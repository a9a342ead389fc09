import{a,b,c,d}from"./chunk-2BRCDJNX.js";import"./chunk-RLG55I22.js";export{a as RULES,d as SCANNING,c as isRuleId,b as ruleById};
