import{b as a,c as b,d as c,e as d,f as e}from"./chunk-JE22KJ7I.js";import"./chunk-RLG55I22.js";export{e as RAISED,a as RULES,d as SCANNING,c as isRuleId,b as ruleById};
