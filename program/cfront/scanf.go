package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// This file models scanf and fscanf (C11 7.21.6.2, 7.21.6.4): formatted
// reads from a stream mcr does not model, so what they read is an input.
//
//	k = input in [-1, n]       the result: EOF, or the conversions that matched
//	for each conversion i < k: *p_i = input of p_i's type
//	return k
//
// Every outcome of the call is one of these: the stream may end (EOF) or
// stop matching before any conversion, and each converted value can be
// any value of its type; a conversion that did not happen leaves its
// object alone. Stores through the pointers are ordinary writes (an
// event, a race, on shared memory). Only integer conversions (d, i, u, o,
// x, X, c without a width or with width 1) are modelled, with a literal
// format; any other call (strings, floats, %n, a computed format) is left
// unmodelled and ends its execution when reached (compiler.call). sscanf
// reads a string of the program and is run, not guessed (sscanf.go).

// scanfCall compiles scanf and fscanf; false if it is another call or its
// format is beyond the model.
func (c *compiler) scanfCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	first := 0
	switch name {
	case "scanf":
	case "fscanf":
		first = 1
	default:
		return false
	}
	if len(as) <= first {
		return false
	}
	fv, ok := as[first].Value().(cc.StringValue)
	if !ok {
		return false
	}
	convs, ok := scanConversions(strings.TrimSuffix(string(fv), "\x00"))
	if !ok || len(convs) != len(as)-first-1 {
		return false
	}
	ws := make([]uint8, len(convs))
	for i, a := range as[first+1:] {
		et := pointee(c.rtype(a))
		if et == nil || !cc.IsIntegerType(et) || et.Size() < 1 || et.Size() > 8 {
			return false
		}
		ws[i] = uint8(et.Size())
		if convs[i] == 'c' {
			ws[i] = 1
		}
	}
	pos := toPos(x)
	c.p.hasInputs = true
	for _, a := range as[:first+1] {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	ptrs := make([]int, len(convs))
	for i, a := range as[first+1:] {
		c.expr(a)
		ptrs[i] = c.newTemp()
		c.emit(instr{op: opSetLocal, a: int32(ptrs[i])})
	}
	k := c.newTemp()
	c.push(int64(c.str("result of " + name + "()")))
	c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: 4, flag: fSigned})
	for _, bound := range []struct {
		v  int64
		op opcode
	}{{-1, opGe}, {int64(len(convs)), opLe}} {
		c.emit(instr{op: opDup})
		c.push(bound.v)
		c.emit(instr{op: bound.op, flag: fSigned})
		c.emit(instr{op: opBuiltin, a: bAssume, k: 1, pos: pos})
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opSetLocal, a: int32(k)})
	for i := range convs {
		c.get(k)
		c.push(int64(i))
		c.emit(instr{op: opGt, flag: fSigned})
		skip := c.emit(instr{op: opJz})
		c.get(ptrs[i])
		c.push(int64(c.str("value converted by " + name + "()")))
		c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: ws[i], flag: fSigned})
		c.emit(instr{op: opStore, w: ws[i], pos: pos})
		c.patch(skip)
	}
	c.get(k)
	return true
}

// scanSpec is one conversion specification of a scanf format.
type scanSpec struct {
	suppress bool   // %*...: converts without assigning
	width    int    // 0: none
	length   string // the length modifier letters (hh, l, ...), as written
	conv     byte
}

// scanSpecs splits a scanf format into its conversion specifications
// (%% left out); ok is false if one has no conversion letter. What each
// caller models of them is its own rule.
func scanSpecs(f string) (specs []scanSpec, ok bool) {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		var sp scanSpec
		if sp.suppress = i < len(f) && f[i] == '*'; sp.suppress {
			i++
		}
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			sp.width = sp.width*10 + int(f[i]-'0')
			i++
		}
		start := i
		for i < len(f) && strings.IndexByte("hljztL", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			return nil, false
		}
		sp.length, sp.conv = f[start:i], f[i]
		specs = append(specs, sp)
	}
	return specs, true
}

// scanConversions lists the conversion letters of a scanf format that
// assign (not %% nor %*...); ok is false if one is not an integer
// conversion mcr models.
func scanConversions(f string) (convs []byte, ok bool) {
	specs, ok := scanSpecs(f)
	if !ok {
		return nil, false
	}
	for _, sp := range specs {
		switch sp.conv {
		case 'd', 'i', 'u', 'o', 'x', 'X':
		case 'c':
			if sp.width > 1 {
				return nil, false
			}
		default:
			return nil, false
		}
		if !sp.suppress {
			convs = append(convs, sp.conv)
		}
	}
	return convs, true
}
